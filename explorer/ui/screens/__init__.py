"""Full screens: the browser, the help, the learning screen."""
