<?xml version="1.0"?>
