<?php
try { f(); }
