<?php
#[A] echo 1;
