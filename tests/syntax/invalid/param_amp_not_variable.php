<?php
function f(&x) {}
