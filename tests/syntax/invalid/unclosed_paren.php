<?php
echo (1 + 2;
