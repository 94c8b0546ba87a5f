<?php
function strlen() {}
