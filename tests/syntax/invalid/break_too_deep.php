<?php
while (1) { break 2; }
