int rvlab_speed_main(void);
int main(void) { return rvlab_speed_main(); }
