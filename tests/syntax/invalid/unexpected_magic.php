<?php
$a __LINE__;
