<?php
for ($k = 1; ?$k; $k++) {}
