<?php
echo `ls $x