<?php
function f() { continue; }
