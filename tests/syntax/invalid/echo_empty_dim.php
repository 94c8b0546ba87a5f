<?php
echo $a[];
