<?php
unset($a?->b);
