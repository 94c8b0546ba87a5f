<?php
switch ($a) { default: break; default: break; }
