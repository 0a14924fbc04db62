"""Every match graded in the background: the queue, the grader, the grades posted."""
