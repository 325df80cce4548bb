from enum import StrEnum

class CableCarTileId(StrEnum):
    CURVE = "curve"
    DOUBLE_CURVE = "double_curve"
    STRAIGHT = "straight"
    SWITCH_LEFT = "switch_left"
    SWITCH_RIGHT = "switch_right"
    TREE_CROSSING = "tree_crossing"
    TREE_ROUNDABOUT = "tree_roundabout"
    TREE_STRAIGHT_TWO_CURVES_A = "tree_straight_two_curves_a"
    TREE_STRAIGHT_TWO_CURVES_B = "tree_straight_two_curves_b"
    TREE_THREE_WAY = "tree_three_way"
    TREE_WYE = "tree_wye"
    TWO_OPPOSITE_CURVES = "two_opposite_curves"

    def __str__(self) -> str:
        return str(self.value)
