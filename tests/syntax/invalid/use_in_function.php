<?php
function f() { use A\B; }
