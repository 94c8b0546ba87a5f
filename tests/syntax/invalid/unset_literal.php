<?php
unset(1);
