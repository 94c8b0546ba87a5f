<?php
echo 'abc;
