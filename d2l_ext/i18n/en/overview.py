"""13.3.0 Overview: the prediction by the hardware's rule; the exercise's answer for this run."""
MESSAGES = {
    'overview.prediction': 'predicted: together takes {rule} ({assumption})',
    'overview.rule.slower': "the slower lane's time",
    'overview.rule.shared': "the lanes' times added up, divided by {ways}",
    'overview.assume.separate': 'separate hardware',
    'overview.assume.shared': '{ways} of {lanes} lanes at once on {cores} cores',
    'overview.answer.busy': ('This run: other programs held the cores; run it on a quiet'
        ' machine, and read the recorded GPU run below.'),
    'overview.vs_serial.faster': 'This run: faster than one after the other, which left hardware idle.',
    'overview.vs_serial.same': ('This run: no faster than one after the other; the lanes'
        ' gained nothing by running at once.'),
    'overview.vs_serial.slower': 'This run: slower than one after the other.',
    'overview.vs_device.faster': 'Faster than {baseline} too: the same work finished sooner on the lanes at once.',
    'overview.vs_device.same': 'No clear difference from {baseline}: no gain over one device doing both jobs.',
    'overview.vs_device.slower': 'Slower than {baseline}: one device doing both jobs is the better way here.',
}
