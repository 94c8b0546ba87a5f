<?php
const A = $b;
