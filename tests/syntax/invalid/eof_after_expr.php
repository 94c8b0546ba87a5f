<?php
echo 1