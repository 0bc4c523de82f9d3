"""viewer"""
