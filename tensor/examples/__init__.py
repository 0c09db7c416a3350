"""Training examples (``pip install -e '.[examples]'`` for scikit-learn's digits):

    python -m tensor.examples.mlp      # a two-layer perceptron
    python -m tensor.examples.cnn      # a small convolutional network

Each trains on the 8x8 digits that ship with scikit-learn (or on MNIST from IDX files you
supply, ``--mnist DIR``), prints one line per epoch and ends with the test accuracy.
"""
