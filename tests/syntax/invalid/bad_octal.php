<?php
echo 0129;
