<?php
echo "{$o->a-b}";
