def clock(seconds):
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    hours = hours % 24
    return "%02d:%02d:%02d" % (hours, minutes, secs)
