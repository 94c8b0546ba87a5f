<?php
final final class A {}
