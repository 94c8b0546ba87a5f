<?php
echo <<<EOT
abc
