<?php
echo <<<EOT
  a
 b
  EOT;
