"""13.3.0 Overview: the prediction by the hardware's rule."""
MESSAGES = {
    'overview.prediction': 'predicted: together {speedup} as fast as one after the other ({assumption})',
    'overview.assume.separate': 'separate hardware',
    'overview.assume.shared': '{ways} of {lanes} lanes at once on {cores} cores',
}
