<?php
namespace A { }
echo 1;
