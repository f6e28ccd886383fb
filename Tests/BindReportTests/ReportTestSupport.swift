// Tests of the report writers.
