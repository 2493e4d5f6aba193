"""torch.fx.immutable_collections: the list and dict a Node keeps its arguments in. They refuse
changes (`node.args` is rebuilt, never edited in place, so that `users` stay right), hash by
content, and print as the plain list and dict do."""

__all__ = ["immutable_list", "immutable_dict"]


def _refuse(self, *args, **kwargs):
    raise TypeError(f"'{type(self).__name__}' object does not support mutation. If you are "
                    f"attempting to modify the kwargs or args of a torch.fx.Node object,\n"
                    f"instead create a new copy of it and assign the copy to the node:\n\n"
                    f"    new_args = ...  # copy and mutate args\n    node.args = new_args")


class immutable_list(list):
    """A list that refuses to change."""

    __delitem__ = __iadd__ = __imul__ = __setitem__ = append = clear = extend = insert = \
        pop = remove = reverse = sort = _refuse

    def __hash__(self):
        return hash(tuple(self))

    def __reduce__(self):
        return (immutable_list, (tuple(iter(self)),))


class immutable_dict(dict):
    """A dict that refuses to change."""

    __delitem__ = __setitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __hash__(self):
        return hash(tuple(self.items()))

    def __reduce__(self):
        return (immutable_dict, (tuple(self.items()),))
