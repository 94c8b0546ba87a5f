<?php
echo "$a[]";
