<?php
echo $a{0};
