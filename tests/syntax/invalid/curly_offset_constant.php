<?php
echo FOO{1};
