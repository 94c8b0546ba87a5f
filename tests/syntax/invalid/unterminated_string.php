<?php
echo "abc;
