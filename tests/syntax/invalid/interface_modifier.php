<?php
final interface I {}
