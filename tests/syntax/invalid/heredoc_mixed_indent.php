<?php
echo <<<EOT
 	a
 	EOT;
