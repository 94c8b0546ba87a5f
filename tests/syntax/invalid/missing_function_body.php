<?php
function f();
