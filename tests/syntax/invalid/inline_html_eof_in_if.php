<?php if (1): ?>
html
