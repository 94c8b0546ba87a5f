<?php
echo "{$ a}";
