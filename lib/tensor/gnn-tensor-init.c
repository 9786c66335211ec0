/* gnn-tensor-init.c: placeholder, implemented by its owner */
#include "tensor/gnn-tensor-private.h"
