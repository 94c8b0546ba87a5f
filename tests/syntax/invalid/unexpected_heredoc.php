<?php
foo <<<EOT
x
EOT;
