<?php
while (1) { break $a; }
