<?php
if (1) {} else {} elseif (2) {}
