<?php
abstract final class A {}
