<?php
class list {}
