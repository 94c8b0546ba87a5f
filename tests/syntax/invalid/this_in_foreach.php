<?php
foreach ($a as $this) {}
