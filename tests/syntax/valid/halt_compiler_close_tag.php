<?php
__HALT_COMPILER() ?>
raw { data
