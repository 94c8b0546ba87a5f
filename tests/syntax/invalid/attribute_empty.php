<?php
#[]
function f() {}
