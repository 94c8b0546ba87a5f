<?php
print;
