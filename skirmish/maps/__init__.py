"""maps"""
