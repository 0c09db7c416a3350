"""`python -m tensor.examples`: which examples there are."""
import tensor.examples

print(tensor.examples.__doc__.strip())
