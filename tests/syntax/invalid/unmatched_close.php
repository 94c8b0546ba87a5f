<?php
echo 1; }
