<?php
function echo() {}
